"""The worksheet functions as Excel calls them."""
