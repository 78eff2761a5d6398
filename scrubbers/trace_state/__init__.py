"""Trace state: what one trace knows, and what it lets out.

Owns the per-trace context (`context`: placeholders, known values, their written-out e-mail forms in
`email_forms`), replacing what was found with placeholders (`replacing`) and the output check
(`output_check`: a field about to be written that still holds a value the trace knows is redacted whole).
"""
