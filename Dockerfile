# The ctxbench server as a container, for Cloud Run (the same app App Engine runs):
#   gcloud run deploy ctxbench-als --source . --set-env-vars STRATEGY=als
# Only what `npm start` (node app.js) needs is copied, and only production dependencies
# are installed (benchmark and test packages are devDependencies); test/appengine.test.js
# checks that the list below covers every file the server loads and that every package it
# loads survives --omit=dev. The Node major is the one the benchmark measures on
# (DEFAULT_MAJOR in lib/node-versions.js) and the App Engine yaml files run: change all three together.
FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY app.js ./
COPY lib/ lib/
COPY context/ context/
COPY handlers/ handlers/
COPY servers/ servers/
USER node
# PORT comes from the environment (Cloud Run sets it; the server's default is 8080).
# Inside a container the server must listen on every interface: Cloud Run's K_SERVICE
# already implies it, HOST makes `docker run -p 8080:8080` work too.
ENV HOST=0.0.0.0
EXPOSE 8080
CMD ["npm", "start"]
