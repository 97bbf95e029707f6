"""Class mode: a lecturer asks, every student answers on a phone, the projector shows
the class. codes: join codes, tokens, the lecturer's key; questions: a class question
(an Exercises problem) and the validation of a student's answer; tally: the counts
and the wrong-answer analysis (all pure). schema, store, limits: the rooms in a SQL
database (SQLAlchemy Core); database: the app's connection (the only Streamlit import
of the model and store). The pages: ui/class_mode/lecturer and ui/class_mode/student."""
