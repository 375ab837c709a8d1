# Turn a text file into a C++ source defining `dtf::kBuiltinSchemaText`.
# Usage: cmake -DIN=file.txt -DOUT=file.cpp -P embed_text.cmake
file(READ ${IN} content)
# Raw string literals cap nothing in g++, but keep chunks small for tools.
string(LENGTH "${content}" len)
set(out "// Generated from ${IN} by cmake/embed_text.cmake. Do not edit.\n")
string(APPEND out "namespace dtf {\nextern const char *const kBuiltinSchemaText;\n")
string(APPEND out "const char *const kBuiltinSchemaText =\n")
set(pos 0)
while(pos LESS len)
  string(SUBSTRING "${content}" ${pos} 4000 chunk)
  string(APPEND out "R\"DTF_EMBED(${chunk})DTF_EMBED\"\n")
  math(EXPR pos "${pos} + 4000")
endwhile()
string(APPEND out ";\n}\n")
file(WRITE ${OUT} "${out}")
