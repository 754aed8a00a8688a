"""Tiny games that show the protocol in a few dozen lines; a template for a student's own game."""
