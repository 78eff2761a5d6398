"""Scrubbing works with no network and prints nothing: no tldextract download, no warnings."""

from __future__ import annotations

import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import logging, socket

    def refuse(*args, **kwargs):
        raise OSError("network is off in this test")

    socket.socket.connect = refuse
    socket.create_connection = refuse
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logging.getLogger().addHandler(Keep(level=logging.WARNING))
    logging.getLogger().setLevel(logging.WARNING)

    from scrubbers import ScrubEngine

    engine = ScrubEngine()
    out = engine.scrub_text("Write to maria.gonzalez@acme-retail.com today", engine.new_context())
    assert out == "Write to <EMAIL_ADDRESS_1> today", out
    assert not records, [r.getMessage() for r in records]
    print("ok")
    """
)


def test_import_and_scrub_an_email_offline_log_nothing(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TLDEXTRACT_CACHE": str(tmp_path / "tld-cache")}
    done = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", CHILD], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"
    assert done.stderr == ""
    # the bundled suffix list was used, nothing fetched or cached
    assert not (tmp_path / "tld-cache").exists()
