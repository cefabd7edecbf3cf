"""Interactive terminal games, built on Textual. They drive the engines through views only."""
