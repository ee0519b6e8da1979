"""wadlclient: a client for WADL-described REST web services (lazr.restful dialect).

The names here match lazr.restfulclient's, so a script moves over by
changing its imports::

    from wadlclient import ServiceRoot, BasicHttpAuthorizer

    with ServiceRoot(BasicHttpAuthorizer("ada", "secret"), "http://127.0.0.1:8080/") as root:
        for recipe in root.recipes[:10]:
            print(recipe.id, recipe.dish.name)
"""

from wadlclient._lazy import lazy_names as _lazy_names
from wadlclient._version import __version__
from wadlclient.errors import (
    BadRequest,
    CacheError,
    ClientError,
    Conflict,
    ConnectError,
    ConnectionDropped,
    CredentialsError,
    CredentialsFileError,
    CredentialsNeeded,
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
    WalkTokenError,
)

#: ``typing.TYPE_CHECKING`` without importing typing (type checkers take any name
#: ``TYPE_CHECKING`` as true): ``import wadlclient`` stays as cheap as it can be.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from wadlclient.auth import (
        AccessToken,
        BasicHttpAuthorizer,
        Consumer,
        HttpAuthorizer,
        OAuthAuthorizer,
    )
    from wadlclient.bulk import BulkPolicy, BulkReport
    from wadlclient.cache import HTTPCache
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
        Shard,
        Walk,
        prefetch,
    )
    from wadlclient.objects.revive import close_revived_roots, supply_credentials
    from wadlclient.schema import EXAMPLE_WADL_MEDIA_TYPE, SUN_WADL_MEDIA_TYPE

#: The module each name of the API comes from, imported when the name is first asked
#: for: ``import wadlclient`` (which ``wadlclient --version`` and every subpackage's
#: import pay) then costs next to nothing, and the HTTP stack with http.client, ssl
#: and email, the cache, the authorizers and the thread pool of `wadlclient.bulk` are
#: imported only by a program that uses them. The errors above are imported at once.
_LAZY: dict[str, tuple[str, ...]] = {
    "wadlclient.auth": (
        "AccessToken", "BasicHttpAuthorizer", "Consumer", "HttpAuthorizer", "OAuthAuthorizer",
    ),
    "wadlclient.bulk": ("BulkPolicy", "BulkReport"),
    "wadlclient.cache": ("HTTPCache",),
    "wadlclient.http": ("BodyTooLarge", "InvalidURL", "Retry", "Timeout"),
    "wadlclient.objects": (
        "Collection", "CollectionLike", "Entry", "EntryLike", "EntryList", "HostedFile",
        "NamedOperation", "Resource", "RootLike", "ServiceRoot", "Shard", "Walk",
    ),
    "wadlclient.objects.revive": ("close_revived_roots", "supply_credentials"),
    # Not the package: its attribute ``prefetch`` is the submodule of that name once
    # a walk has imported it.
    "wadlclient.objects.links": ("prefetch",),
    "wadlclient.schema": ("EXAMPLE_WADL_MEDIA_TYPE", "SUN_WADL_MEDIA_TYPE"),
}  # fmt: skip

if not TYPE_CHECKING:
    # Hidden from type checkers, which see the names imported above: a misspelt
    # ``wadlclient.X`` stays an error for them rather than an ``object``.
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())


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
    "CredentialsNeeded",
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
    "Shard",
    "Timeout",
    "TransportError",
    "TransportTimeout",
    "Unauthorized",
    "UnexpectedResponseError",
    "WADLError",
    "Walk",
    "WalkTokenError",
    "__version__",
    "close_revived_roots",
    "install_as_lazr_restfulclient",
    "prefetch",
    "supply_credentials",
]
