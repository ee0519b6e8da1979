"""Shared test configuration. The service fixtures come from the
``cookbook_service.testing`` pytest plugin (registered by the package)."""
