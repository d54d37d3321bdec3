package load

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// maxEventBytes bounds one SSE event's data.
const maxEventBytes = 4 << 20

// readSSEReply reads a text/event-stream body until the event that carries
// a JSON-RPC response and returns it decoded. Events without data (such as
// a resumption priming event), comments and notifications are skipped.
func readSSEReply(body io.Reader) (*reply, error) {
	br := bufio.NewReaderSize(body, 4096)
	var data []byte
	for {
		line, err := readLine(br)
		if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
			if errors.Is(err, io.EOF) {
				return nil, errNoReply
			}
			return nil, err
		}
		if len(line) == 0 { // a blank line dispatches the event
			if len(data) > 0 {
				r, err := parseReply(data)
				if err != nil {
					return nil, err
				}
				if !r.isNotification() {
					return r, nil
				}
				data = data[:0]
			}
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if len(field) == 0 {
			continue // a comment
		}
		if string(field) != "data" {
			continue // event, id, retry: irrelevant here
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if len(data) > 0 {
			data = append(data, '\n')
		}
		if len(data)+len(value) > maxEventBytes {
			return nil, fmt.Errorf("SSE event larger than %d bytes", maxEventBytes)
		}
		data = append(data, value...)
		if errors.Is(err, io.EOF) {
			// A final event not followed by a blank line is not dispatched.
			return nil, errNoReply
		}
	}
}

// readLine returns the next line of br without its line ending (LF or CRLF).
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(long) > maxEventBytes {
				return nil, fmt.Errorf("line longer than %d bytes", maxEventBytes)
			}
			line, err = br.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, err
}
