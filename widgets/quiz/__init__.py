"""Parts of the quiz panel: one answer editor per question kind, and the worked-example view."""
