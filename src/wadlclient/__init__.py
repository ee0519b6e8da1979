"""wadlclient: a client for WADL-described REST web services (lazr.restful dialect).

The names here match lazr.restfulclient's, so a script moves over by
changing its imports::

    from wadlclient import ServiceRoot, BasicHttpAuthorizer

    with ServiceRoot(BasicHttpAuthorizer("ada", "secret"), "http://127.0.0.1:8080/") as root:
        for recipe in root.recipes[:10]:
            print(recipe.id, recipe.dish.name)
"""

from typing import TYPE_CHECKING, Any

from wadlclient._version import __version__
from wadlclient.auth import (
    AccessToken,
    BasicHttpAuthorizer,
    Consumer,
    HttpAuthorizer,
    OAuthAuthorizer,
)
from wadlclient.cache import HTTPCache
from wadlclient.errors import (
    BadRequest,
    CacheError,
    ClientError,
    Conflict,
    ConnectError,
    ConnectionDropped,
    CredentialsError,
    CredentialsFileError,
    CredentialsRefused,
    Gone,
    HTTPError,
    MethodNotAllowed,
    NotFound,
    PreconditionFailed,
    Redacted,
    ResponseError,
    RestfulError,
    ServerError,
    TransportError,
    TransportTimeout,
    Unauthorized,
    UnexpectedResponseError,
    WADLError,
)
from wadlclient.http import BodyTooLarge, InvalidURL, Retry, Timeout
from wadlclient.objects import (
    Collection,
    CollectionLike,
    Entry,
    EntryLike,
    EntryList,
    HostedFile,
    NamedOperation,
    Resource,
    RootLike,
    ServiceRoot,
    prefetch,
)
from wadlclient.schema import EXAMPLE_WADL_MEDIA_TYPE, SUN_WADL_MEDIA_TYPE

if TYPE_CHECKING:
    from wadlclient.bulk import BulkPolicy, BulkReport

#: Names exported from `wadlclient.bulk`, imported when first asked for (it needs threads).
_BULK_NAMES = frozenset({"BulkPolicy", "BulkReport"})


def __getattr__(name: str) -> Any:
    if name in _BULK_NAMES:
        from wadlclient import bulk

        return getattr(bulk, name)
    raise AttributeError(f"module 'wadlclient' has no attribute {name!r}")


def install_as_lazr_restfulclient() -> None:
    """Make ``lazr.restfulclient`` (and launchpadlib above it) run on wadlclient, in this process.

    Call it before launchpadlib or lazr.restfulclient is imported; calling
    it again does nothing. See docs/lazr-compat.md.
    """
    from wadlclient.lazr import install

    install()


__all__ = [
    "EXAMPLE_WADL_MEDIA_TYPE",
    "SUN_WADL_MEDIA_TYPE",
    "AccessToken",
    "BadRequest",
    "BasicHttpAuthorizer",
    "BodyTooLarge",
    "BulkPolicy",
    "BulkReport",
    "CacheError",
    "ClientError",
    "Collection",
    "CollectionLike",
    "Conflict",
    "ConnectError",
    "ConnectionDropped",
    "Consumer",
    "CredentialsError",
    "CredentialsFileError",
    "CredentialsRefused",
    "Entry",
    "EntryLike",
    "EntryList",
    "Gone",
    "HTTPCache",
    "HTTPError",
    "HostedFile",
    "HttpAuthorizer",
    "InvalidURL",
    "MethodNotAllowed",
    "NamedOperation",
    "NotFound",
    "OAuthAuthorizer",
    "PreconditionFailed",
    "Redacted",
    "Resource",
    "ResponseError",
    "RestfulError",
    "Retry",
    "RootLike",
    "ServerError",
    "ServiceRoot",
    "Timeout",
    "TransportError",
    "TransportTimeout",
    "Unauthorized",
    "UnexpectedResponseError",
    "WADLError",
    "__version__",
    "install_as_lazr_restfulclient",
    "prefetch",
]
