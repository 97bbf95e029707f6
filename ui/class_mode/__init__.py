"""Class mode's pages: a lecturer asks, every student answers on a phone, the projector
shows the class. lecturer/ (the Class page and the projector) and student/ (the Join
page), each with its state, actions, live reads and views; database: the app's one
`st.connection` to the rooms store. What they compute and say (codes, questions,
tallies, words) is in teaching/class_mode/; the store itself is rooms/."""
