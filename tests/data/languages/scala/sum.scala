object Sum {
  def main(args: Array[String]): Unit = {
    val t = scala.io.StdIn.readLine().trim.toInt
    for (_ <- 1 to t) {
      val p = scala.io.StdIn.readLine().trim.split("\\s+").map(_.toLong)
      println(p(0) + p(1))
    }
  }
}
