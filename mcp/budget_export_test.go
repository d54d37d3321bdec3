package mcp

// MemoryInUseForTest returns the bytes s counts against its memory budget.
func MemoryInUseForTest(s *Server) int64 {
	total, _ := s.mem.usage(account{})
	return total
}

// EventBytesForTest returns the bytes of a session's stored events that s
// counts against its memory budget.
func EventBytesForTest(s *Server, session string) int64 {
	_, mine := s.mem.usage(eventAccount(session))
	return mine
}
