"""What people read: how a token reads, sentences about a lesson, tile colours, the explorer's logic."""
