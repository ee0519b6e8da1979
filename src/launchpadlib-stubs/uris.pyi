"""launchpadlib's service and web roots."""

LPNET_SERVICE_ROOT: str
QASTAGING_SERVICE_ROOT: str
STAGING_SERVICE_ROOT: str
DEV_SERVICE_ROOT: str
DOGFOOD_SERVICE_ROOT: str
TEST_DEV_SERVICE_ROOT: str
LPNET_WEB_ROOT: str
QASTAGING_WEB_ROOT: str
STAGING_WEB_ROOT: str
DEV_WEB_ROOT: str
DOGFOOD_WEB_ROOT: str
TEST_DEV_WEB_ROOT: str
service_roots: dict[str, str]
web_roots: dict[str, str]

def lookup_service_root(service_root: str) -> str: ...
def lookup_web_root(web_root: str) -> str: ...
def web_root_for_service_root(service_root: str) -> str: ...
