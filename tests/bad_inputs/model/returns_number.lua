-- not a table
return 42
