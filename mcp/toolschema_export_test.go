package mcp

import "encoding/json"

// SchemaFor is the schema AddTool derives from T.
func SchemaFor[T any]() (json.RawMessage, error) { return schemaFor[T]() }
