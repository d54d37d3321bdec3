package rpc

// Draft is a JSON Schema draft, as a [SchemaSet] reads documents that do
// not name theirs with "$schema" ([WithDefaultDraft]).
type Draft int

// The drafts a SchemaSet reads.
const (
	Draft4    Draft = 4
	Draft6    Draft = 6
	Draft7    Draft = 7
	Draft2019 Draft = 2019 // 2019-09
	Draft2020 Draft = 2020 // 2020-12, the default
)
