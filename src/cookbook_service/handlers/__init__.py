"""What each resource answers: routing, validation and the lazr.restful rules.

* :mod:`~cookbook_service.handlers.routes` - the routing table and :class:`Service`
* :mod:`~cookbook_service.handlers.root` - a version's service root, JSON or WADL
* :mod:`~cookbook_service.handlers.collections` - pages of collections
  (:mod:`~cookbook_service.handlers.paging`: ``ws.start``, ``ws.size``, ``ws.show``)
* :mod:`~cookbook_service.handlers.entries` - entries: GET, PATCH/PUT, DELETE
* :mod:`~cookbook_service.handlers.operations` - named operations, by name
* :mod:`~cookbook_service.handlers.files` - hosted files
* :mod:`~cookbook_service.handlers.values` - field values and arguments from the wire
* :mod:`~cookbook_service.handlers.base` - :class:`Call`, :class:`Answer`, :class:`Problem`
"""

from cookbook_service.handlers.base import Answer, Call, Problem
from cookbook_service.handlers.paging import MAX_PAGE_SIZE
from cookbook_service.handlers.routes import Service
from cookbook_service.handlers.values import MAX_NAME_LENGTH

__all__ = ["MAX_NAME_LENGTH", "MAX_PAGE_SIZE", "Answer", "Call", "Problem", "Service"]
