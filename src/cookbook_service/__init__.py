"""The cookbook example service: a real lazr.restful-dialect web service."""
