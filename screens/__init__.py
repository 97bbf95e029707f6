"""The page scripts: app.py registers each with `st.navigation`, and Streamlit runs it
as a script when its page is open. Never imported: a package only so that the import
contract (.importlinter) can name it as the top layer."""
