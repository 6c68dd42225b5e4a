module petstore

go 1.19
