"""The printed documents' data and their PDF downloads (the rendering is
:mod:`organizer.printing`)."""
