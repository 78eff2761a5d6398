"""What is recognised as personal, beyond Presidio's own recognizers: names of any culture and script
(NER filtered by a name gazetteer, context and structure), international phones, cards, IBANs and
addresses, user names in home paths and URLs.

`scrubbers.analysis.analyzer` registers them through `registry.build_recognizers` and passes every text's
detections through `registry.refine`; everything tunable is in the policy (`recognizers:` and the
policy's own word lists), so another domain needs another policy file, not code.
"""
