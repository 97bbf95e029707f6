"""The Lesson's ten steps and what each computes (pure)."""
