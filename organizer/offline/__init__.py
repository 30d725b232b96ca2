"""The service worker and the web app manifest."""
