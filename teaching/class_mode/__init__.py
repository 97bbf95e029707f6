"""Class mode's teaching: join codes, questions, the class's answers counted, and what
the projector and the phones say (pure)."""
