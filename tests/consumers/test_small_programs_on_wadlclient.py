"""The programs' tests, run again with launchpadlib on wadlclient, all in one child.

ubuntu-ppa-package-version-report, ubuntu-package-buildinfo,
ubuntu-cloud-image-changelog, launchpad-cli, lpshipit, ubuntu-bug-triage,
ppa-dev-tools and craft-application: each module's tests run here under
stock launchpadlib, and this test runs them all again under ``python -m
wadlclient.lazr_compat`` (`on_wadlclient`). One child for the eight: its
start-up (pytest, launchpadlib, the parsed WADL) costs more CPU than the
small programs' tests do.
"""

from __future__ import annotations

from pathlib import Path

from . import (
    test_craft_application,
    test_launchpad_cli,
    test_lpshipit,
    test_ppa_dev_tools,
    test_ubuntu_bug_triage,
    test_ubuntu_cloud_image_changelog,
    test_ubuntu_package_buildinfo,
    test_ubuntu_ppa_package_version_report,
)
from .on_wadlclient import run_modules_on_wadlclient

PROGRAMS = [
    test_ubuntu_ppa_package_version_report,
    test_ubuntu_package_buildinfo,
    test_ubuntu_cloud_image_changelog,
    test_launchpad_cli,
    test_lpshipit,
    test_ubuntu_bug_triage,
    test_ppa_dev_tools,
    test_craft_application,
]


def test_every_programs_flow_passes_on_wadlclient_too(lazr_client: str, tmp_path: Path) -> None:
    outcome = run_modules_on_wadlclient(PROGRAMS, tmp_path)
    assert outcome.failed == [], outcome.report
