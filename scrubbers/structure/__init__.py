"""Structure: how a value is read before anything in it is analysed.

Owns the plan of a value (`plan`: JSON or a repr inside strings decoded, leaves under personal keys
marked whole, prose leaves to analyse), the policy's key rules (`keyrules`), decoding and re-encoding
strings that hold structure in their own style (`decoding`), the view a leaf is read through
(`disguise`: invisible characters, look-alike letters, escapes, spaced letters and base64 taken off) and
values split across adjacent parts of a message (`joins`).
"""
