"""What the pages compute and say, with no Streamlit, no Plotly, no database: NumPy,
the engine (pooling/) and the tiny network (cnn/) only, and tested without a page.

By page: playground (the layer story), batch (the batch story), lesson (the ten
steps), exercises (problems, answers, replies and their known mistakes), class_mode
(join codes, class questions, the class's answers counted, what the projector and the
phones say). Shared by them: pages (the one page list), words (the one vocabulary),
layer_words (a pooling layer in words, one home), numbers (how a number is written),
tolerances, formulas (ledger and output size in LaTeX), snippets (code that
reproduces a screen), links (share-link fields and codecs), class_link (a Playground
layer in a link to the Class page), digits (the handwritten digit images)."""
