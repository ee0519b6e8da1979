"""pytest fixtures that start the cookbook example service (being written)."""
