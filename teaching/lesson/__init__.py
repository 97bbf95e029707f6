"""The Lesson's steps and what each computes (pure)."""
