"""What the uncued lower-case name rule (`NameRecognizer._lower_pairs`) finds in text nobody here wrote
(a check of its damage, not a test): the README of every installed package (`METADATA` of the venv's
dist-infos: English technical prose, with author and contributor lists), lower-cased.

    .venv/bin/python -m benchmarks.accuracy.lower_names

Prints the words read, the pairs found and each distinct pair, for a reader to judge: a person's name
(authors, maintainers, thanks) or damage.
"""

from __future__ import annotations

import sys
from collections import Counter
from importlib import metadata

from scrubbers.policy import load_policy
from scrubbers.recognizers.names import NameRecognizer


def main() -> int:
    policy = load_policy().policy
    recognizer = NameRecognizer([], policy.recognizers.strict_places, policy.recognizers.person_roles)
    found: Counter[str] = Counter()
    words = 0
    for distribution in metadata.distributions():
        text = (distribution.read_text("METADATA") or "").lower()
        words += len(text.split())
        found.update(text[start:end] for start, end, _ in recognizer._lower_pairs(text))
    print(f"{words:,} words of package READMEs, {sum(found.values())} pairs in {len(found)} distinct:")
    for pair, count in found.most_common():
        print(f"  {count:3d}  {pair}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
