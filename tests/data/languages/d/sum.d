import std.stdio;

void main()
{
    long t;
    readf(" %d", &t);
    foreach (i; 0 .. t)
    {
        long a, b;
        readf(" %d %d", &a, &b);
        writeln(a + b);
    }
}
