package mcpcheck

// Direction says which side of the session sent a message.
type Direction int

const (
	// ClientToServer is a message the client sent.
	ClientToServer Direction = iota
	// ServerToClient is a message the server sent.
	ServerToClient
)

// String names the direction as the schema's direction members do.
func (d Direction) String() string {
	if d == ServerToClient {
		return "server-to-client"
	}
	return "client-to-server"
}

// other returns the opposite direction.
func (d Direction) other() Direction { return 1 - d }

// sends reports whether a method whose index direction is dir may be sent
// in direction d: a client-to-server method is sent by the client.
func (d Direction) sends(dir string) bool {
	return dir == "both" || dir == d.String()
}
