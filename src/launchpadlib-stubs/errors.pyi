"""launchpadlib's errors: lazr.restfulclient's, re-exported (the same classes at run time)."""

from lazr.restfulclient.errors import BadRequest as BadRequest
from lazr.restfulclient.errors import ClientError as ClientError
from lazr.restfulclient.errors import Conflict as Conflict
from lazr.restfulclient.errors import CredentialsError as CredentialsError
from lazr.restfulclient.errors import CredentialsFileError as CredentialsFileError
from lazr.restfulclient.errors import HTTPError as HTTPError
from lazr.restfulclient.errors import MethodNotAllowed as MethodNotAllowed
from lazr.restfulclient.errors import NotFound as NotFound
from lazr.restfulclient.errors import PreconditionFailed as PreconditionFailed
from lazr.restfulclient.errors import ResponseError as ResponseError
from lazr.restfulclient.errors import RestfulError as RestfulError
from lazr.restfulclient.errors import ServerError as ServerError
from lazr.restfulclient.errors import Unauthorized as Unauthorized
from lazr.restfulclient.errors import UnexpectedResponseError as UnexpectedResponseError
