"""The Exercises' problems, answers, replies and known mistakes, and the words they use
(pure)."""
