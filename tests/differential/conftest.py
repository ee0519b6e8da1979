"""The idioms' stock launchpadlib, here, parses the fakes' WADL once (`tests.stock_wadl`)."""

from __future__ import annotations

from tests.stock_wadl import stock_wadl_parsed_once

__all__ = ["stock_wadl_parsed_once"]
