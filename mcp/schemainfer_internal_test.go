package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inferredSchemaFor is what schemaFor gives for t.
func inferredSchemaFor(t reflect.Type) ([]byte, error) {
	s, err := inferSchema(t)
	if err != nil {
		return nil, err
	}
	return marshalToolSchema(s)
}

type (
	oracleLeaf struct {
		N int    `json:"n" jsonschema:"minimum=5"`
		S string `json:"s,omitempty" jsonschema:"a <leaf> & its text"`
	}
	OracleEmbedded struct {
		Page  int `json:"page,omitempty" jsonschema:"maximum=50"`
		Shown int `json:"shown"`
	}
	oracleHidden struct {
		Visible int `json:"visible"`
		hidden  int
	}
	oracleNamedSlice []oracleLeaf
	oracleNamedMap   map[string]*oracleLeaf
	oracleText       string
	oracleKey        struct{ a int }
	oracleSelf       struct {
		Next *oracleSelf `json:"next"`
	}
	oracleSelfTagged struct {
		N    int                `json:"n" jsonschema:"minimum=1"`
		More []oracleSelfTagged `json:"more"`
	}
	oracleMutualA struct{ B *oracleMutualB }
	oracleMutualB struct{ A []oracleMutualA }
)

func (oracleKey) MarshalText() ([]byte, error) { return nil, nil }

// oracleTypes are the types inference must agree on with the schema
// library: every kind it maps, nesting, tags, embedding, and the types
// both refuse.
var oracleTypes = map[string]reflect.Type{
	"bool":           reflect.TypeFor[bool](),
	"int":            reflect.TypeFor[int](),
	"int8":           reflect.TypeFor[int8](),
	"int16":          reflect.TypeFor[int16](),
	"int32":          reflect.TypeFor[int32](),
	"int64":          reflect.TypeFor[int64](),
	"uint":           reflect.TypeFor[uint](),
	"uint8":          reflect.TypeFor[uint8](),
	"uint16":         reflect.TypeFor[uint16](),
	"uint32":         reflect.TypeFor[uint32](),
	"uint64":         reflect.TypeFor[uint64](),
	"uintptr":        reflect.TypeFor[uintptr](),
	"float32":        reflect.TypeFor[float32](),
	"float64":        reflect.TypeFor[float64](),
	"string":         reflect.TypeFor[string](),
	"named string":   reflect.TypeFor[oracleText](),
	"bytes":          reflect.TypeFor[[]byte](),
	"any":            reflect.TypeFor[any](),
	"pointer to any": reflect.TypeFor[*any](),
	"error":          reflect.TypeFor[error](),
	"raw JSON":       reflect.TypeFor[json.RawMessage](),
	"pointer to raw": reflect.TypeFor[*json.RawMessage](),
	"time":           reflect.TypeFor[time.Time](),
	"pointer time":   reflect.TypeFor[**time.Time](),
	"slog level":     reflect.TypeFor[slog.Level](),
	"big numbers": reflect.TypeFor[struct {
		I *big.Int
		R big.Rat
		F []big.Float
	}](),
	"duration":          reflect.TypeFor[time.Duration](),
	"netip addr":        reflect.TypeFor[netip.Addr](),
	"slice":             reflect.TypeFor[[]string](),
	"slice of slices":   reflect.TypeFor[[][]float64](),
	"array":             reflect.TypeFor[[3]int](),
	"pointer to array":  reflect.TypeFor[*[2]bool](),
	"pointer to slice":  reflect.TypeFor[*[]int](),
	"map":               reflect.TypeFor[map[string]int](),
	"map of any":        reflect.TypeFor[map[string]any](),
	"map of structs":    reflect.TypeFor[map[string]oracleLeaf](),
	"text-keyed map":    reflect.TypeFor[map[oracleKey]string](),
	"named slice":       reflect.TypeFor[oracleNamedSlice](),
	"named map":         reflect.TypeFor[oracleNamedMap](),
	"pointer to struct": reflect.TypeFor[*oracleLeaf](),
	"empty struct":      reflect.TypeFor[struct{}](),
	"unexported only":   reflect.TypeFor[struct{ a, b int }](),
	"embedded":          reflect.TypeFor[struct{ OracleEmbedded }](),
	"embedded pointer":  reflect.TypeFor[struct{ *OracleEmbedded }](),
	"embedded unexported": reflect.TypeFor[struct {
		oracleHidden
		Own string `json:"own"`
	}](),
	"embedded and shadowed": reflect.TypeFor[struct {
		OracleEmbedded
		Page string `json:"page" jsonschema:"the page's name"`
	}](),
	"embedded non-struct": reflect.TypeFor[struct {
		oracleText
		X int
	}](),
	"two fields of one name": reflect.StructOf([]reflect.StructField{ // vet refuses it written out
		{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"x"`},
		{Name: "B", Type: reflect.TypeFor[string]()},
		{Name: "C", Type: reflect.TypeFor[int](), Tag: `json:"x,omitempty"`},
	}),
	"one name at two depths": reflect.TypeFor[struct {
		OracleEmbedded
		Shown string `json:"page"`
	}](),
	"json tags": reflect.TypeFor[struct {
		Plain     int
		Renamed   int     `json:"renamed"`
		Optional  int     `json:"optional,omitempty"`
		Zero      int     `json:"zero,omitzero"`
		Skipped   int     `json:"-"`
		Dash      int     `json:"-,"`
		OnlyOpts  int     `json:",omitempty"`
		AsString  int     `json:"asString,string"`
		unexport  int     //nolint:unused // not encoded, so not in the schema
		Described *string `json:"described" jsonschema:"free text, with commas"`
	}](),
	"keyword tags": reflect.TypeFor[struct {
		Sort   string     `json:"sort" jsonschema:"enum=asc|desc,default=asc,title=Sort <order>"`
		Limit  *int       `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=10,description=how many, at most"`
		Ratio  float32    `json:"ratio" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1e21,examples=0.5|1e-7"`
		Name   string     `json:"name" jsonschema:"minLength=1,maxLength=8,pattern=^[a-z]+$,format=hostname"`
		Tags   []string   `json:"tags" jsonschema:"enum=a|b,maxLength=3,description=labels"`
		Fixed  [2]*int8   `json:"fixed" jsonschema:"minimum=-3"`
		Nested oracleLeaf `json:"nested" jsonschema:"title=leaf"`
		When   time.Time  `json:"when" jsonschema:"format=date-time,examples=\"2026-01-01T00:00:00Z\""`
		Raw    json.RawMessage
		Any    any `jsonschema:"default={\"a\":[1,2]}"`
	}](),
	"nesting": reflect.TypeFor[struct {
		Leaves  []*oracleLeaf               `json:"leaves"`
		ByName  map[string][]oracleLeaf     `json:"byName"`
		Deep    map[string]map[string]*bool `json:"deep,omitempty"`
		Inline  struct{ X, Y float64 }      `json:"inline"`
		Pointer **struct{ Z uint16 }        `json:"pointer"`
	}](),
	"same type twice": reflect.TypeFor[struct {
		A, B oracleLeaf
		C    []oracleLeaf
	}](),
	// Refused by both.
	"chan":                   reflect.TypeFor[chan int](),
	"func field":             reflect.TypeFor[struct{ F func() }](),
	"complex":                reflect.TypeFor[complex128](),
	"unsafe pointer":         reflect.TypeFor[unsafe.Pointer](),
	"int-keyed map":          reflect.TypeFor[map[int]string](),
	"map of chans":           reflect.TypeFor[map[string]chan int](),
	"slice of funcs":         reflect.TypeFor[[]func()](),
	"cycle":                  reflect.TypeFor[oracleSelf](),
	"cycle with keyword tag": reflect.TypeFor[oracleSelfTagged](),
	"mutual cycle":           reflect.TypeFor[oracleMutualA](),
	"embedded time":          reflect.TypeFor[struct{ time.Time }](),
	"empty tag": reflect.TypeFor[struct {
		X int `jsonschema:""`
	}](),
	"unknown keyword": reflect.TypeFor[struct {
		N int `jsonschema:"minimun=1"`
	}](),
	"default refused": reflect.TypeFor[struct {
		N int `jsonschema:"minimum=1,default=0"`
	}](),
	"example refused": reflect.TypeFor[struct {
		S string `jsonschema:"enum=a|b,examples=a|c"`
	}](),
	"enum not JSON": reflect.TypeFor[struct {
		N int `jsonschema:"enum=1|two"`
	}](),
	"pattern refused": reflect.TypeFor[struct {
		S string `jsonschema:"pattern=(["`
	}](),
	"nested bad tag": reflect.TypeFor[map[string][]struct {
		N int `jsonschema:"maxLength=-1"`
	}](),
	"minimum not a num": reflect.TypeFor[struct {
		N int `jsonschema:"minimum=ten"`
	}](),
}

func TestInferredSchemasAreTheSchemaLibrarysByteForByte(t *testing.T) {
	for name, typ := range oracleTypes {
		t.Run(name, func(t *testing.T) {
			want, wantErr := librarySchemaFor(typ)
			got, err := inferredSchemaFor(typ)
			require.NotErrorIs(t, wantErr, errOracleBlind, "the table holds only types the oracle can judge")
			if wantErr != nil {
				require.Error(t, err, "the library refuses %v (%v); we gave %s", typ, wantErr, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// randomType builds a Go type from r, up to depth levels deep: the kinds
// inference maps and some it refuses, struct fields with json and
// jsonschema tags of every sort.
func randomType(r *rand.Rand, depth int) reflect.Type {
	leaves := []reflect.Type{
		reflect.TypeFor[bool](), reflect.TypeFor[int8](), reflect.TypeFor[uint32](), reflect.TypeFor[int](),
		reflect.TypeFor[float32](), reflect.TypeFor[string](), reflect.TypeFor[any](), reflect.TypeFor[[]byte](),
		reflect.TypeFor[json.RawMessage](), reflect.TypeFor[time.Time](), reflect.TypeFor[oracleLeaf](),
		reflect.TypeFor[OracleEmbedded](), reflect.TypeFor[complex64](),
	}
	if depth == 0 || r.IntN(3) == 0 {
		return leaves[r.IntN(len(leaves))]
	}
	switch r.IntN(6) {
	case 0:
		return reflect.PointerTo(randomType(r, depth-1))
	case 1:
		return reflect.SliceOf(randomType(r, depth-1))
	case 2:
		return reflect.ArrayOf(r.IntN(3), randomType(r, depth-1))
	case 3:
		key := reflect.TypeFor[string]()
		if r.IntN(8) == 0 {
			key = reflect.TypeFor[int]()
		}
		return reflect.MapOf(key, randomType(r, depth-1))
	}
	jsonTags := []string{"", `json:"a"`, `json:"b,omitempty"`, `json:",omitzero"`, `json:"-"`, `json:"a,omitempty"`}
	schemaTags := []string{"", ` jsonschema:"free <text>, & more"`, ` jsonschema:"description=d, e,title=t"`,
		` jsonschema:"minimum=1"`, ` jsonschema:"maxLength=3,examples=1|2"`, ` jsonschema:"default=1"`, ` jsonschema:"enum=1|2"`}
	var fields []reflect.StructField
	embedded := false
	for i := range r.IntN(4) {
		f := reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: randomType(r, depth-1),
			Tag: reflect.StructTag(jsonTags[r.IntN(len(jsonTags))] + schemaTags[r.IntN(len(schemaTags))])}
		if f.Type == reflect.TypeFor[OracleEmbedded]() && !embedded && r.IntN(2) == 0 {
			embedded = true
			f.Name, f.Anonymous, f.Tag = f.Type.Name(), true, ""
		}
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}

func TestInferredSchemasOfGeneratedTypesAreTheSchemaLibrarys(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	agreed, refused, blind := 0, 0, 0
	for range 3000 {
		typ := randomType(r, 4)
		want, wantErr := librarySchemaFor(typ)
		got, err := inferredSchemaFor(typ)
		if errors.Is(wantErr, errOracleBlind) {
			blind++
			continue
		}
		if wantErr != nil && strings.Contains(wantErr.Error(), `want one of "null"`) {
			// The library's null-only *json.RawMessage refused a default
			// or an example there (see rawPointerAllowsAnyValue).
			continue
		}
		if wantErr != nil {
			refused++
			require.Error(t, err, "the library refuses %v (%v); we gave %s", typ, wantErr, got)
			continue
		}
		agreed++
		require.NoError(t, err, "%v", typ)
		require.Equal(t, string(want), string(got), "%v", typ)
	}
	t.Logf("%d schemas agreed, %d types refused by both, %d the oracle cannot judge", agreed, refused, blind)
	assert.Positive(t, agreed)
	assert.Positive(t, refused)
}

// A *json.RawMessage field takes any JSON value, null included (as nil),
// as a json.RawMessage field does: the schema library allowed it null
// only.
func TestARawMessagePointerTakesAnyValue(t *testing.T) {
	got, err := inferredSchemaFor(reflect.TypeFor[struct {
		V *json.RawMessage `json:"v"`
		W *json.RawMessage `json:"w,omitempty" jsonschema:"a value, any"`
	}]())
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"v":true,"w":{"description":"a value, any"}},"required":["v"],"additionalProperties":false}`, string(got))
}
