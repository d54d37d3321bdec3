package mcp

// OpenListens reports how many subscriptions/listen are open on s, so that
// tests can wait for a cancellation to take effect.
func OpenListens(s *Server) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.listens)
}
