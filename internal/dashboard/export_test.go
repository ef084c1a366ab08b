package dashboard

// SchemaJSON returns the embedded schema's bytes as they are (the schema
// test compiles them directly).
func SchemaJSON() []byte { return schemaJSON }
