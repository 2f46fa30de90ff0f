"""The HTTP layer: the services the routes are given, the routes, the one table from errors to
answers, the API's documents, guards and metrics; imports every room below it, never test mode."""
