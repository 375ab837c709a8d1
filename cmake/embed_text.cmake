# Turn a text file into a C++ source defining `dtf::<SYMBOL>` (a C string).
# Usage: cmake -DIN=file.txt -DOUT=file.cpp -DSYMBOL=kName -P embed_text.cmake
file(READ ${IN} content)
# Raw string literals cap nothing in g++, but keep chunks small for tools.
string(LENGTH "${content}" len)
set(out "// Generated from ${IN} by cmake/embed_text.cmake. Do not edit.\n")
string(APPEND out "namespace dtf {\nextern const char *const ${SYMBOL};\n")
string(APPEND out "const char *const ${SYMBOL} =\n")
set(pos 0)
while(pos LESS len)
  string(SUBSTRING "${content}" ${pos} 4000 chunk)
  string(APPEND out "R\"DTF_EMBED(${chunk})DTF_EMBED\"\n")
  math(EXPR pos "${pos} + 4000")
endwhile()
string(APPEND out ";\n}\n")
file(WRITE ${OUT} "${out}")
