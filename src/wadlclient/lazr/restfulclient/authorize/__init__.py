"""lazr.restfulclient's authorizers: the null one and HTTP Basic.

wadlclient's own authorizers already have lazr's interface
(``authorizeSession``, ``authorizeRequest``, ``user_agent_params``).
"""

from wadlclient.auth import BasicHttpAuthorizer, HttpAuthorizer

__all__ = ["BasicHttpAuthorizer", "HttpAuthorizer"]
