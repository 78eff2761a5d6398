"""Keep Presidio offline and quiet; imported by `scrubbers/__init__.py` before anything imports Presidio.

Presidio's EmailRecognizer calls `tldextract.extract()`, whose module-level extractor downloads the Public
Suffix List on first use and logs a WARNING with a traceback for every failed attempt when the machine is
offline. Replacing that extractor with one that has no URLs and no cache makes it use the snapshot bundled
with tldextract: no network, no files written, nothing logged (presidio.md section 6; works on 5.3 and 5.4).
"""

from __future__ import annotations

import os

# Read by tldextract >= 5.4 at import time; harmless on older versions, which the patch below covers.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

import tldextract  # noqa: E402
import tldextract.tldextract as _tldextract_module  # noqa: E402

_tldextract_module.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
