fun main() {
    val t = readLine()!!.trim().toInt()
    repeat(t) {
        val (a, b) = readLine()!!.trim().split(Regex("\\s+")).map { it.toLong() }
        println(a + b)
    }
}
