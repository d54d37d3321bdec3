package gen

// TypesByLocation generates opts and returns, with the files, the Go type
// (as written in the generated package) of every schema converted, by
// location (file#pointer).
func TypesByLocation(opts Options) ([]File, map[string]string, error) {
	record := map[string]typeRef{}
	files, err := generate(opts, record)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]string{}
	for k, t := range record {
		out[k] = t.describe(false)
	}
	return files, out, nil
}
