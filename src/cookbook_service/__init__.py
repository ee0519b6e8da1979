"""The cookbook example service: a real lazr.restful-dialect web service.

Recipes, dishes and cookbooks in SQLite, served by Starlette/uvicorn, with a
WADL document and JSON representations generated from one declarative
description (:mod:`cookbook_service.schema`). Modules:

* :mod:`~cookbook_service.schema` - resource types, fields, named operations
* :mod:`~cookbook_service.wadl` - the WADL document from the schema
* :mod:`~cookbook_service.render` - JSON entries and pages from the schema
* :mod:`~cookbook_service.handlers` - what each resource answers (a package: routes,
  root, collections, entries, operations, files), validation
* :mod:`~cookbook_service.app` - the Starlette app: body limit, auth, latency, journal
* :mod:`~cookbook_service.store` / :mod:`~cookbook_service.seed` - SQLite and its seed
* :mod:`~cookbook_service.auth` - Basic and OAuth verification
* :mod:`~cookbook_service.testing` - ``run_service`` and the pytest fixtures
* ``python -m cookbook_service`` - serve, or add users, consumers and tokens
"""
