"""lazr.restfulclient's authorizers: the null one and HTTP Basic.

wadlclient's own authorizers already have lazr's interface
(``authorizeSession``, ``authorizeRequest``, ``user_agent_params``);
these subclasses add what lazr's show: its module names, its default
reprs, and Basic's header written as ``authorization``.
"""

from wadlclient.lazr.restfulclient.authorize._basic import BasicHttpAuthorizer, HttpAuthorizer

__all__ = ["BasicHttpAuthorizer", "HttpAuthorizer"]
