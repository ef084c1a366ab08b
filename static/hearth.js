// Small page helpers; Datastar does the rest.
