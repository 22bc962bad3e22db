"""The web pages and API, in a browser where needed."""
