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

// ReclaimersForTest returns how many reclaimers s's memory budget runs
// under pressure.
func ReclaimersForTest(s *Server) int {
	s.mem.mu.Lock()
	defer s.mem.mu.Unlock()
	return len(s.mem.reclaim)
}

// BudgetAccountsForTest returns how many accounts s's memory budget keeps,
// those that hold nothing included.
func BudgetAccountsForTest(s *Server) int {
	s.mem.mu.Lock()
	defer s.mem.mu.Unlock()
	return len(s.mem.accounts)
}
