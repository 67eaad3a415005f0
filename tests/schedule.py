"""How pytest-xdist hands out the test files (a plugin, loaded by tests/conftest.py; `.ci/test`
runs `-n 3 --dist loadfile`).

The files come in the order tests/conftest.py sorts them: multi-host, browser, slow, the rest.
The first two workers take them from the front. Any further worker takes them from the back,
the quick files, and never a browser file: two browser files at once use what the machine's
two cores give (chromium, the live server, the test), and a third made pages miss their
waits. While the browser files run, that worker uses the CPU they leave idle; when only
browser files are left, it stops.
"""

import pytest
from xdist.scheduler import LoadFileScheduling

FRONT_WORKERS = 2


def is_browser_file(scope: str) -> bool:
    return scope.endswith("_browser.py")  # every browser test lives in such a file (docs/testing.md)


class BrowserFilesOnTwoWorkers(LoadFileScheduling):
    def _assign_work_unit(self, node) -> None:
        if int(node.gateway.id.removeprefix("gw")) >= FRONT_WORKERS:
            scope = next(reversed(self.workqueue))
            if is_browser_file(scope):
                node.shutdown()  # the tests it was given still run
                return
            self.workqueue.move_to_end(scope, last=False)  # the base class takes the first file
        super()._assign_work_unit(node)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, absent under -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadfile":
        return BrowserFilesOnTwoWorkers(config, log)
    return None
