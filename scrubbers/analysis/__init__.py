"""Analysis: finding personal data in one text, whatever trace it came from.

Owns the tuned Presidio analyzer of a policy (`analyzer`: the policy's recognizers, spaCy's NER read
masked, the refiner, allow and keep rules, key hints) and the one module that touches Presidio's private
API (`presidio_adapter`). Everything here depends on the text and the policy alone, so its answers can be
cached by text and shared between traces. The project's own recognizers live beside it, in
`scrubbers.recognizers`.
"""
