"""What players see without signing in: the public event page /e/<code>, a player's own page
/p/<token> and what a player reports there."""
